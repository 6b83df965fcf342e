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
}

export interface DeviceAuthenticator {
  /** The device whose MQTT client id and secret these are, or undefined (wrong, unknown, disabled). */
  authenticate(clientId: string, secret: string): Promise<DeviceIdentity | undefined>;
}
