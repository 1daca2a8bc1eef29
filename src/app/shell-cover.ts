// When the Ionic app takes over from the light shell, its router outlet draws its first page a
// frame or two after mounting. Meanwhile a still copy of the page being left stays on screen (inert,
// hidden from assistive technology), so the seller never sees an empty frame.
import './shell-cover.css';

let cover: HTMLElement | null = null;
let timer: number | undefined;

export function coverPage(): void {
  uncoverPage();
  const page = document.querySelector<HTMLElement>('#root > .ion-page');
  if (!page) return;
  cover = page.cloneNode(true) as HTMLElement;
  cover.className = 'shell-cover';
  for (const element of [cover, ...cover.querySelectorAll('[data-testid]')]) element.removeAttribute('data-testid');
  cover.setAttribute('aria-hidden', 'true');
  cover.inert = true;
  document.body.append(cover);
  const scrolled = page.querySelector('.page-scroll');
  const scroll = cover.querySelector('.page-scroll');
  if (scrolled && scroll) scroll.scrollTop = scrolled.scrollTop;
  // Whatever happens to the app, the copy does not outstay its moment.
  timer = window.setTimeout(uncoverPage, 1_000);
}

export function uncoverPage(): void {
  window.clearTimeout(timer);
  cover?.remove();
  cover = null;
}
