/** Where the IoT overview lives (the menu's path). */
export const IOT_SCREEN_PATH = '/device/iot';

/** The live page of one device, opened as a tab of its own (a fixed route, routes.tsx). */
export const livePath = (deviceCode: string) => `${IOT_SCREEN_PATH}/${encodeURIComponent(deviceCode)}`;
