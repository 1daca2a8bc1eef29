import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { RequireAuth } from '../../../src/app/RequireAuth';
import { sessionTokenAtom } from '../../../src/lib/store';

function renderAt(path: string, token: string | null) {
  const store = createStore();
  store.set(sessionTokenAtom, token);
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]} future={{ v7_startTransition: true, v7_relativeSplatPath: true }}>
        <Routes>
          <Route path="/" element={<p>landing</p>} />
          <Route
            path="/home"
            element={
              <RequireAuth>
                <p>workspace</p>
              </RequireAuth>
            }
          />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

describe('RequireAuth', () => {
  it('sends a visitor to the landing page', () => {
    renderAt('/home', null);
    expect(screen.getByText('landing')).toBeTruthy();
    expect(screen.queryByText('workspace')).toBeNull();
  });

  it('lets a signed-in seller through', () => {
    renderAt('/home', 'token-123');
    expect(screen.getByText('workspace')).toBeTruthy();
  });
});
