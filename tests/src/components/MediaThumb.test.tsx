import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MediaThumb } from '../../../src/components/MediaThumb';

describe('MediaThumb', () => {
  it('shows a video by its poster frame, a picture with its description', () => {
    render(<MediaThumb url="/files/clip.mp4" poster="/files/clip.poster.jpg" fileType="video/mp4" alt="Video" />);
    const thumb = screen.getByRole('img', { name: 'Video' });
    expect(thumb.getAttribute('src')).toBe('/files/clip.poster.jpg');
    expect(document.querySelector('video')).toBeNull();
  });

  it('falls back to the video’s first frame when it has no poster', () => {
    const { container } = render(<MediaThumb url="/files/old.mp4" poster={null} fileType="video/mp4" alt="Old video" />);
    const video = container.querySelector('video')!;
    expect(video.getAttribute('src')).toBe('/files/old.mp4');
    expect(video.getAttribute('aria-label')).toBe('Old video');
    expect(video.preload).toBe('metadata');
  });

  it('shows a picture as itself', () => {
    render(<MediaThumb url="/files/shot.jpg" fileType="image/jpeg" alt="Shot" />);
    expect(screen.getByRole('img', { name: 'Shot' }).getAttribute('src')).toBe('/files/shot.jpg');
  });
});
