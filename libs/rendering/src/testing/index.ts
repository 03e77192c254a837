// Test support, published as `@talao/rendering/testing` (not from the main index: it signs with test keys, runs
// poppler and zbar, and the product must not load it).
export * from './authorized-nfe.js';
export * from './authorized-nfse.js';
export * from './pdf-inspection.js';
