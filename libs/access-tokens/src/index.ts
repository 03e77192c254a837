// Public API of @talao/access-tokens: scopes and their coverage, at+jwt verification, the Bearer challenge.
export { SCOPES, SCOPE_DESCRIPTIONS, OPERATION_SCOPES, TOOL_SCOPES, isScope, parseScopes, type Scope } from './scopes.js';
export { AcceptedCredentials, type AcceptedCredentialsOptions } from './accepted-credentials.js';
export {
  bearerChallenge,
  cachedAccessTokenVerifier,
  createAccessTokenVerifier,
  InvalidAccessTokenError,
  looksLikeJwt,
  type AccessTokenVerifier,
  type AccessTokenVerifierOptions,
  type VerifiedAccessToken,
} from './access-token-verifier.js';
