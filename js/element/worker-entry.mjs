// Entry of pkg/element-worker.mjs (see worker.mjs).
import './worker.mjs';
import '../render/worker.js';
