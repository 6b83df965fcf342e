/** A failure the simulator explains in one message (no stack trace): wrong password, console or broker unreachable. */
export class SimulatorError extends Error {
  override name = 'SimulatorError';
}
