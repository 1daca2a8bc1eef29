// A failed call to the server as the outbox sees it: its HTTP status (0 when the server was not
// reached) decides between waiting to retry and telling the seller.
export class TransportError extends Error {
  constructor(
    /** HTTP status, or 0 when the server was not reached. */
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}
