// What can go wrong talking to a cluster, said once for the CLI and the exporter: each problem
// a KubeError with a `reason` the caller maps to its own outcome (the CLI: exit codes).

/**
 * A problem reaching or reading the cluster. `reason`:
 * - `config`: no usable kubeconfig (none found, a file that cannot be read, an unknown context);
 * - `unreachable`: the server did not answer (connection refused, TLS, timeout);
 * - `unauthorized` (401) / `forbidden` (403): the credentials were refused;
 * - `not-found`: the object or the type does not exist;
 * - `gone` (410): a list continue token or a watch's resourceVersion expired;
 * - `api`: any other answer that is not a success.
 */
export class KubeError extends Error {
  /**
   * @param {'config' | 'unreachable' | 'unauthorized' | 'forbidden' | 'not-found' | 'gone' | 'api'} reason
   * @param {string} message
   * @param {{ status?: number, cause?: unknown }} [details]
   */
  constructor(reason, message, { status, cause } = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.reason = reason;
    this.status = status;
  }
}

/** The reason of an HTTP status that is not a success. */
export function reasonOfStatus(status) {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not-found';
  if (status === 410) return 'gone';
  return 'api';
}
