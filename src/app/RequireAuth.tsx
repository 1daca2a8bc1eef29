// A login-required route: a visitor without a session is sent to the landing page (SPEC §2).
import type { ReactNode } from 'react';
import { useAtomValue } from 'jotai';
import { Navigate } from 'react-router-dom';
import { paths } from '../config/paths';
import { sessionTokenAtom } from '../lib/store';

export function RequireAuth({ children }: { children: ReactNode }) {
  const token = useAtomValue(sessionTokenAtom);
  if (!token) return <Navigate to={paths.landing} replace />;
  return children;
}
