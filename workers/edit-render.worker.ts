// The edit-render worker: exposes its operation to the page through Comlink, handing the
// picture's bytes over instead of copying them.
import { expose, transfer } from 'comlink';
import type { EditRenderApi } from '../contract/edit-render';
import { renderEdit } from './edit-render';

const api: EditRenderApi = {
  async render(request) {
    const rendered = await renderEdit(request);
    return transfer(rendered, [rendered.bytes]);
  },
};
expose(api);
