// Test support, published as `@talao/fiscal-xml/testing` (not from the main index: fast-check is a devDependency,
// and the product must not load it).
export * from './dps-document-arbitrary.js';
export * from './nfe-document-arbitrary.js';
export * from './test-signer.js';
