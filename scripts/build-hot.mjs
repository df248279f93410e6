// `node scripts/build-hot.mjs`: the main .wasm built with the Cargo profile `release-hot` (the
// release settings with the jaq crates, serde_json and saphyr-parser at opt-level 3; Cargo.toml),
// the module `npm run bench` measures against pkg/'s for the lever of per-crate opt-levels
// (issue 21). Not shipped, and pkg/ is never touched:
//
//   1. cargo rustc of crates/wasm with --profile release-hot into its own target dir, `hot/`
//      inside cargo's (target/hot), so cargo keeps its incremental work between runs;
//   2. wasm-bindgen and wasm-opt -Oz as `npm run build` runs them (scripts/build.mjs), into
//      target/hot/workload_map_bg.wasm; skipped when that file is newer than cargo's module.
//      wasm-bindgen's output stays in target/hot/bindgen/workload_map/ (for `wasm-opt -Oz -g`,
//      a module with names for scripts/profile.mjs).
//
// Prints the path of the module. The glue is pkg/'s (scripts/bench.mjs, packageWith), so pkg/
// should be built from the same sources.

import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { bindModule, cargoTargetDir, compileModule, crateName, wasmCrate } from './build.mjs';
import { ensureBuildTools } from './toolchain.mjs';

/** The Cargo profile of the variant. */
export const hotProfile = 'release-hot';

/**
 * Builds the variant; returns the path of its optimised .wasm. `quiet`: the tools' output is
 * kept, not shown (a failure's error then carries it as `output`). Throws when a step fails.
 */
export function buildHot({ quiet = false } = {}) {
  ensureBuildTools();
  const dir = path.join(cargoTargetDir(), 'hot');
  const raw = compileModule(wasmCrate, { profile: hotProfile, targetDir: dir, quiet });
  const wasm = path.join(dir, `${crateName}_bg.wasm`);
  if (existsSync(wasm) && statSync(wasm).mtimeMs >= statSync(raw).mtimeMs) return wasm;
  const staging = path.join(dir, 'bindgen');
  rmSync(staging, { recursive: true, force: true });
  // Written under another name first: an interrupted run leaves no module that looks current.
  bindModule(raw, crateName, { staging, wasmOut: `${wasm}.partial`, quiet });
  renameSync(`${wasm}.partial`, wasm);
  return wasm;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    console.log(buildHot());
  } catch (error) {
    console.error(`[build-hot] ${error.message}`);
    process.exit(1);
  }
}
