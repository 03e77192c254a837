// Test certificate authority in the ICP-Brasil shape (tests, authorizer simulator, demo company). Not for production.
export {
  createTestCertificateAuthority,
  loadTestCertificateAuthority,
  type IssueA1Options,
  type TestCertificateAuthority,
  type TestCertificateAuthorityPems,
} from './test-certificate-authority.js';
