// Public API of @talao/authorization-server: the OAuth 2.1 server of the MCP interface and its HTTP handler.
export { createAuthorizationServer, type AuthorizationServer, type AuthorizationServerOptions } from './authorization-server.js';
export { authorizationHttpHandler, type AuthorizationHandlerOptions } from './http-handler.js';
export { type Account, type AccountKeys, type ProvenApiKey, accountIdOf, parseAccountId } from './accounts.js';
export { grantableScopes } from './consent-page.js';
export { deleteExpiredOAuthRecords } from './prisma-adapter.js';
