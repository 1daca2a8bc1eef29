// A small picture of a result or a photo: an image, or a video's first frame (muted, not played).
export function MediaThumb({ url, fileType, alt, className }: { url: string; fileType: string; alt: string; className?: string }) {
  if (fileType.startsWith('video/')) {
    return <video className={className} src={url} preload="metadata" muted playsInline aria-label={alt} />;
  }
  return <img className={className} src={url} alt={alt} loading="lazy" decoding="async" />;
}
