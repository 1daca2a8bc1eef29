import type { Translated } from '../shape';
import type ru from '../ru/mail';

const mail: Translated<typeof ru, 'en'> = {
  mail: {
    hello: 'Hello, {{name}}!',
    ignore: 'If you did not ask for this, you can ignore this message.',
    verify: {
      subject: 'Confirm your e-mail for SoleStudio',
      body: 'To finish signing up for SoleStudio, confirm your e-mail address with this link:',
      button: 'Confirm e-mail',
      expiry: 'The link works once and expires in 24 hours.',
    },
    resetCode: {
      subject: 'Your SoleStudio password reset code',
      body: 'Your password reset code:',
      expiry: 'The code expires in 10 minutes. Do not share it with anyone.',
    },
    task: {
      subject: {
        completed: 'Your content is ready',
        partially_completed: 'Part of your content is ready',
        failed: 'Your task could not be completed',
      },
      body: {
        completed: 'Your task is done: every result is waiting for you in the task history.',
        partially_completed: 'Part of your results are ready in the task history. The tokens for what could not be made were refunded.',
        manual_rejection: 'Some photos did not pass the check. The reasons and a retry button are in the task history. Your tokens were refunded.',
        system_error: 'An error on our side stopped the task. Your tokens were refunded.',
      },
      open: 'Open task history',
    },
  },
};

export default mail;
