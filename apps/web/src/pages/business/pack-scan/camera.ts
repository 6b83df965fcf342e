/**
 * Reading pack labels with the phone's camera (docs/packs.md "Scan to move"). Loaded only when the
 * user opens the camera: the browser's own BarcodeDetector where it has one (Chrome on Android),
 * else the `barcode-detector` ponyfill, whose ZXing WebAssembly is bundled by Vite (`?url`) and
 * served by the console itself: the library would otherwise fetch it from a CDN at run time.
 */
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

interface Detected {
  rawValue: string;
}
interface Detector {
  detect(source: HTMLVideoElement): Promise<Detected[]>;
}

/** What pack labels carry: the QR code of the pack's code; 1-D codes for older labels. */
const FORMATS = ['qr_code', 'code_128', 'code_39', 'data_matrix', 'ean_13'] as const;

async function makeDetector(): Promise<Detector> {
  const native = (globalThis as { BarcodeDetector?: new (o: { formats: string[] }) => Detector }).BarcodeDetector;
  if (native) return new native({ formats: [...FORMATS] });
  const { BarcodeDetector, prepareZXingModule } = await import('barcode-detector/ponyfill');
  prepareZXingModule({
    overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path) },
  });
  return new BarcodeDetector({ formats: [...FORMATS] });
}

/**
 * Starts the rear camera in `video` and calls `onCode` with each code read (the same code again
 * only after a pause, so a label held in view is taken once). Answers the function that stops it.
 */
export async function startCamera(video: HTMLVideoElement, onCode: (code: string) => void): Promise<() => void> {
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
  let stopped = false;
  const stop = () => {
    stopped = true;
    stream.getTracks().forEach((track) => track.stop());
    video.srcObject = null;
  };
  try {
    video.srcObject = stream;
    await video.play();
    const detector = await makeDetector();
    const lastSeen = new Map<string, number>();
    const tick = async () => {
      if (stopped) return;
      try {
        if (video.readyState >= 2) {
          for (const { rawValue } of await detector.detect(video)) {
            const code = rawValue.trim();
            const now = Date.now();
            if (code && now - (lastSeen.get(code) ?? 0) > 2500) onCode(code);
            if (code) lastSeen.set(code, now);
          }
        }
      } catch {
        // A frame that cannot be read (camera switching, decoder busy): the next one is tried.
      }
      if (!stopped) setTimeout(() => void tick(), 200);
    };
    void tick();
    return stop;
  } catch (error) {
    stop();
    throw error;
  }
}
