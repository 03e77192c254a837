// What tests of queue producers and waiters share (not part of the built library).
export { type ScratchQueue, useScratchQueue } from './scratch-queue.js';
