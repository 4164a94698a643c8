import type { Metadata } from 'next';
import { CalibrationPage } from '@/components/calibration/calibration-page';

export const metadata: Metadata = { title: 'Calibration' };

export default function Calibration() {
  return <CalibrationPage />;
}
