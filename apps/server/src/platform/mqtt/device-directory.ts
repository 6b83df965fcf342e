/**
 * What the brokers need to know about devices, without importing the device module: who a
 * connection is. The module implements this and the app wires it in (the platform never imports
 * a module).
 */

/** The identity an MQTT connection proved with its client id and secret. */
export interface DeviceIdentity {
  tenantId: string;
  deviceCode: string;
  deviceId: string;
  /**
   * A fingerprint of the credential the connection proved, which changes with each rotation: a
   * revocation leaves a connection signed in with the current credential alone.
   */
  credential?: string;
}

export interface DeviceAuthenticator {
  /** The device whose MQTT client id and secret these are, or undefined (wrong, unknown, disabled). */
  authenticate(clientId: string, secret: string): Promise<DeviceIdentity | undefined>;
  /**
   * The fingerprint of the credential the client id signs in with now, or undefined when it may not
   * sign in (removed, disabled, no secret). Without this method a revocation closes every session.
   */
  currentCredential?(clientId: string): Promise<string | undefined>;
}
