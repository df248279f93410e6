// Sharding as kube-state-metrics shards: a workload belongs to shard `fnv32a(uid) % total`
// (FNV-1a, 32 bits, over the UTF-8 bytes of `metadata.uid`). Every series of a workload, its
// pods' `workload_map_pod_info` included, is exported by the workload's shard, so a join of pod
// telemetry to a workload never needs two shards.

/** FNV-1a, 32 bits, over the UTF-8 bytes of `text`. */
export function fnv32a(text) {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(String(text), 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** The shard of a workload uid among `total` shards. */
export function shardOf(uid, total) {
  return fnv32a(uid) % total;
}

/**
 * The shard options read as the exporter takes them: `{ shard, total }`, or an error message.
 * Both are whole numbers, `0 <= shard < total`; without them there is one shard.
 */
export function readSharding(shardText, totalText) {
  if (shardText === undefined && totalText === undefined) return { shard: 0, total: 1 };
  const whole = (text) => (/^\d+$/.test(text ?? '') ? Number(text) : NaN);
  const shard = whole(shardText ?? '0');
  const total = whole(totalText ?? '1');
  if (!Number.isSafeInteger(total) || total < 1) return { error: `--total-shards must be a whole number from 1 (found "${totalText}")` };
  if (!Number.isSafeInteger(shard) || shard >= total) {
    return { error: `--shard must be a whole number from 0 to ${total - 1} (found "${shardText}")` };
  }
  return { shard, total };
}
