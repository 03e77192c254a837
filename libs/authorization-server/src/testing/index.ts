// Test support of @talao/authorization-server: an OAuth public client over plain HTTP.
export * from './oauth-test-client.js';
