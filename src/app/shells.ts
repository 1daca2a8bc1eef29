// Which of the two shells draws an address. The landing page and the static public pages (and an
// unknown address) are drawn by the light shell, without Ionic's router, components and their
// runtime, so a visitor's first load stays small (DESIGN §6). Every other screen is drawn by the
// Ionic app, loaded when the seller first goes there.
import { matchPath } from 'react-router-dom';
import { ROUTES, paths, type RouteName } from '../config/paths';

export type Shell = 'light' | 'ionic';

export interface ShellProps {
  /** Called when the address has become one the other shell draws. */
  onLeave: () => void;
}

const LIGHT_ROUTES = ['landing', 'shoes', 'contact_us'] as const satisfies readonly RouteName[];

type LightRoute = (typeof LIGHT_ROUTES)[number];
const isLight = (name: RouteName): name is LightRoute => (LIGHT_ROUTES as readonly RouteName[]).includes(name);

/** The routes the Ionic app draws, in the route table's order. */
export const IONIC_ROUTES = (Object.keys(ROUTES) as RouteName[]).filter(
  (name): name is Exclude<RouteName, LightRoute> => !isLight(name),
);

/** The Ionic app's route at an address, if it has one there. */
export function ionicRouteAt(pathname: string): (typeof IONIC_ROUTES)[number] | undefined {
  return IONIC_ROUTES.find((name) => matchPath(ROUTES[name].path, pathname) !== null);
}

export function shellFor(pathname: string): Shell {
  return ionicRouteAt(pathname) === undefined ? 'light' : 'ionic';
}

/**
 * Where the app starts for an address it was opened at: a visitor without a session who opens a
 * login-required route starts on the landing page (SPEC §2) without loading the Ionic app only to
 * be sent there by its guard.
 */
export function startingPath(pathname: string, signedIn: boolean): string {
  const name = ionicRouteAt(pathname);
  return name !== undefined && ROUTES[name].auth && !signedIn ? paths.landing : pathname;
}
