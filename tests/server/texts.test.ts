// What the server says, read from the one catalogue: answers and errors with their counts in the
// language's plural forms, the e-mails, the shoe types and the words on the studio's pictures.
import { describe, expect, it } from 'vitest';
import { translate } from '../../server/lib/i18n';
import { resetCodeMail, taskFinishedMail, verificationMail } from '../../server/mail/templates';
import { shoeCategories } from '../../server/materials/shoe-categories';
import { paramsLine, studioCopy, viewLabel } from '../../server/studio/copy';
import { colourName } from '../../server/studio/palette';

describe('messages', () => {
  it('count in the plural forms of the language', () => {
    expect(translate('ru', 'TOO_FEW_VIEWS', { count: 1 })).toBe('Загрузите фото минимум 1 ракурса.');
    expect(translate('ru', 'TOO_FEW_VIEWS', { count: 5 })).toBe('Загрузите фото минимум 5 ракурсов.');
    expect(translate('en', 'TOO_FEW_VIEWS', { count: 1 })).toBe('Upload photos of at least 1 view.');
    expect(translate('en', 'TOO_FEW_VIEWS', { count: 5 })).toBe('Upload photos of at least 5 views.');
    expect(translate('zh', 'TOO_FEW_VIEWS', { count: 5 })).toBe('请至少上传 5 个角度的照片。');
  });

  it('fill in their values as they are, and say a value that is itself a message', () => {
    expect(translate('en', 'ROUTE_NOT_FOUND', { method: 'GET', url: '/api/<b>{{x}}</b>' })).toBe('There is no such API address: GET /api/<b>{{x}}</b>.');
    expect(translate('zh', 'OPTION_UNAVAILABLE', { option: 'Video', reason: 'NEEDS_FFMPEG' })).toBe(
      '无法选择“Video”：生成视频需要服务器上的 ffmpeg 程序，但未找到。',
    );
  });
});

describe('e-mails', () => {
  it('greet the seller and escape what they wrote', () => {
    const mail = verificationMail('zh', '<anna>', 'https://example.test/verify?token=t');
    expect(mail.subject).toBe('确认您的 SoleStudio 邮箱');
    expect(mail.text.split('\n')[0]).toBe('<anna>，您好！');
    expect(mail.html).toContain('&#60;anna&#62;，您好！');
    expect(resetCodeMail('en', 'anna', '123456').text).toContain('Your password reset code:\n123456');
  });

  it('tell a rejection from a failure on our side', () => {
    const rejected = taskFinishedMail('ru', 'anna', { status: 'failed', failureType: 'manual_rejection' }, 'https://x.test/h');
    const broken = taskFinishedMail('ru', 'anna', { status: 'failed', failureType: 'system_error' }, 'https://x.test/h');
    expect(rejected.subject).toBe('Задачу не удалось выполнить');
    expect(rejected.text).toContain('Некоторые фото не прошли проверку.');
    expect(broken.text).toContain('Из-за ошибки на нашей стороне задача не выполнена.');
    expect(taskFinishedMail('en', 'anna', { status: 'partially_completed', failureType: null }, 'https://x.test/h').subject).toBe('Part of your content is ready');
  });
});

describe('the studio’s words and the shoe types', () => {
  it('are said in the seller’s language', () => {
    expect(paramsLine('ru', { heel_height: 3, boot_height: 12, ankle_circumference: 0 })).toBe('Голенище 12 см · Каблук 3 см');
    expect(paramsLine('en', { heel_height: 3 })).toBe('Heel 3 cm');
    expect(viewLabel('zh', 'bottom')).toBe('鞋底');
    expect(studioCopy('en')).toEqual({ newIn: 'New season', fromShoe: 'From the shoe', toWear: 'To wear with it' });
    expect(colourName([10, 10, 10], 'ru')).toBe('Чёрный');
    expect(colourName([250, 228, 85], 'zh')).toBe('黄色');
    expect(shoeCategories('en').map((c) => c.name)).toEqual(['Sneakers', 'Shoes and loafers', 'Heels', 'Sandals', 'Ankle boots', 'Boots']);
  });
});
