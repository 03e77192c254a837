// Test support, published as `@talao/fiscal-model/testing` (not from the main index: fast-check is a
// devDependency, and the product must not load it).
export * from './samples.js';
export * from './arbitraries.js';
export { ALL_ICMS_GROUPS, CSOSN_GROUP_ARBITRARIES, CST_GROUP_ARBITRARIES } from './icms-arbitraries.js';
export * from './validation.js';
