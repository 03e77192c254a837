// Test support, published as `@talao/xml-signing/testing`: hand-built hostile PKCS#12 files.
export * from './hostile-pkcs12.js';
