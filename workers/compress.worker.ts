// The compression worker: exposes its operations to the page through Comlink.
import { expose } from 'comlink';
import type { CompressApi } from '../contract/capture';
import { compressImage } from './compress-image';

const api: CompressApi = { compressImage };
expose(api);
