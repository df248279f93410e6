// Entry of the inline element worker's source (see worker-inline.mjs).
import './worker-inline.mjs';
import '../render/worker.js';
