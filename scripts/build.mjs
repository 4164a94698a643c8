/** `npm run build`: always builds, and records the sources' fingerprint so `npm start` can skip the next build. */
import { buildAndRecord } from './build-fingerprint.mjs';

process.exit(buildAndRecord());
