// A small picture of a result or a photo: an image, or a video's poster frame (its first frame,
// muted and not played, when the video has none).
export function MediaThumb({
  url,
  fileType,
  poster,
  alt,
  className,
}: {
  url: string;
  fileType: string;
  poster?: string | null | undefined;
  alt: string;
  className?: string;
}) {
  if (fileType.startsWith('video/') && !poster) {
    return <video className={className} src={url} preload="metadata" muted playsInline aria-label={alt} />;
  }
  return <img className={className} src={poster ?? url} alt={alt} loading="lazy" decoding="async" />;
}
