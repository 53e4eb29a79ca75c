// One error type for command-line misuse: exit code 2 with the command's usage.
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
  }
}
