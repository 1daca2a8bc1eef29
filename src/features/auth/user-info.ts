// Whether to ask a seller about their store: once per seller on this device.
const KEY = 'user_info_asked';

function asked(): string[] {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(list) ? list.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

export function shouldAskUserInfo(userId: string): boolean {
  return !asked().includes(userId);
}

export function markUserInfoAsked(userId: string): void {
  try {
    localStorage.setItem(KEY, JSON.stringify([...asked(), userId].slice(-20)));
  } catch {
    /* storage blocked: the dialog may show again, nothing else */
  }
}
