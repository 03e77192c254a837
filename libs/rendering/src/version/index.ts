// `@talao/rendering/version`: the PDF version alone, for callers that must not load the browser (the gateway).
export { documentVersion, LAYOUT_REVISION, type VersionInput } from '../document-version.js';
