// pkg/node.cjs, made by scripts/build.mjs from js/node-cjs.mjs: the package's API for require.
import * as api from '../../js/index.js';
export = api;
