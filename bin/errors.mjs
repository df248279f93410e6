// Exit codes and the one error type that ends a command with a message (never a stack trace).

export const EXIT_OK = 0;
export const EXIT_INVALID = 1;
export const EXIT_USAGE = 2;
export const EXIT_NOT_FOUND = 3;
export const EXIT_NO_DEFINITION = 4;
/** The cluster cannot be reached or read: no kubeconfig, no answer, credentials refused. */
export const EXIT_CLUSTER = 5;

/** A problem that ends the command with a message and an exit code. */
export class CliError extends Error {
  /** Where in a file the problem is, when a reader located it (inputs.mjs). */
  /** @type {number | undefined} */ line;
  /** @type {number | undefined} */ column;

  /**
   * @param {string} message
   * @param {number} [exitCode]
   */
  constructor(message, exitCode = EXIT_USAGE) {
    super(message);
    this.exitCode = exitCode;
  }
}
