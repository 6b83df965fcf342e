import type { DeviceAuthenticator } from '../../platform/mqtt/device-directory';

export type { DeviceAuthenticator, DeviceIdentity } from '../../platform/mqtt/device-directory';

/**
 * What ingestion needs to know about devices, without importing the device module: the module
 * implements this and the app wires it in. Every call is by tenant and device code, the key of
 * every telemetry topic.
 */

/** Data types of a product's model field (the thing model). */
export type ModelDataType = 'int' | 'float' | 'bool' | 'string' | 'enum';

/** One field of a product's thing model, with the PLC variable's scaling when one maps it. */
export interface ModelField {
  /** Field key as devices send it (`chlorine`, `temperature`). */
  field: string;
  dataType: ModelDataType;
  unit: string;
  /** Decimals kept after scaling. */
  precision: number;
  /**
   * Raw → engineering value, from the PLC variable mapped to this field: `value * multiplier +
   * offset`. Absent when no variable maps the field (the value is taken as sent).
   */
  scaling?: { multiplier: number; offset: number };
}

/** A device as ingestion sees it. */
export interface KnownDevice {
  deviceId: string;
  tenantId: string;
  deviceCode: string;
  productId: string;
  /** The product's thing model by field key. */
  fields: ReadonlyMap<string, ModelField>;
  /**
   * Seconds without any message after which the device counts as offline (product setting). The
   * inactivity sweep reads it from the product row itself (device-presence.ts).
   */
  inactivitySeconds: number;
}

export interface DeviceDirectory extends DeviceAuthenticator {
  /** A device with its product's model, or undefined when the tenant has no such live device. */
  find(tenantId: string, deviceCode: string): Promise<KnownDevice | undefined>;
  /**
   * Records connection state: online flag and last connect / disconnect / activity times. For
   * callers outside ingestion: ingestion writes the state itself, in its batch transaction and
   * with the on/off record (device-presence.ts), so that it is one truth across processes.
   */
  markOnline(tenantId: string, deviceCode: string, online: boolean, at: Date): Promise<void>;
}
