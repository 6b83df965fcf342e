import { useScreenSize } from '../../../engine/use-screen-size';
import { DeviceCounts } from './device-counts';
import { DeviceList } from './device-list';
import './iot.css';

/**
 * 物联网数据: the device figures at the top, then the tenant's devices with their connection and
 * run state; a device opens its live page (values, chart, raw rows) in a tab of its own.
 */
export default function IotScreen() {
  const phone = useScreenSize() === 0;
  return (
    <div className="mes-iot-overview" data-testid="iot-screen">
      <DeviceCounts testId="iot-counts" small />
      <DeviceList phone={phone} />
    </div>
  );
}
