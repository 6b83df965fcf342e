import mqtt, { type MqttClient } from 'mqtt';
import type { Locator, Page } from 'playwright-core';
import { mqttUrl } from './params';
import { goInApp, openMenuScreen } from './shell';

/** What `device/rotate-secret` answers: the device's MQTT credentials. */
export interface DeviceSecret {
  clientId: string;
  secret: string;
  topicPrefix: string;
}

/** Connects as the device to the e2e server's embedded broker with its secret. */
export function connectDevice(secret: DeviceSecret): Promise<MqttClient> {
  return new Promise((resolve, reject) => {
    // MQTT 3.1.1 (the embedded broker refuses v5); the client id doubles as the user name.
    const client = mqtt.connect(mqttUrl(), {
      protocolVersion: 4,
      clientId: secret.clientId,
      username: secret.clientId,
      password: secret.secret,
      reconnectPeriod: 0,
    });
    client.once('connect', () => resolve(client));
    client.once('error', reject);
  });
}

/**
 * Opens a device's live page (`/device/iot/<code>`) and answers it once shown: in the app, as a
 * click on the device list does (`'in-app'`), or by loading its URL, as a bookmark does (`'url'`).
 */
export async function openDeviceLive(
  page: Page,
  deviceCode: string,
  how: 'in-app' | 'url' = 'in-app',
): Promise<Locator> {
  const path = `/device/iot/${deviceCode}`;
  if (how === 'url') await openMenuScreen(page, path);
  else await goInApp(page, path);
  const live = page.locator(`[data-screen="${path}"]`).getByTestId('iot-live');
  await live.waitFor();
  return live;
}
