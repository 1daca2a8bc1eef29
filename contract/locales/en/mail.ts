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
    subscription: {
      open: 'Manage subscription',
      subject: {
        activated: 'Your {{plan}} subscription is active',
        renewed: 'Your {{plan}} subscription was renewed',
        upgraded: 'Your plan is now {{plan}}',
        payment_failed: 'Your {{plan}} subscription could not be renewed',
        unpaid: 'Your {{plan}} subscription is unpaid',
        canceled: 'Your {{plan}} subscription has ended',
        revoked: 'Automatic payments for {{plan}} were withdrawn',
        refunded: 'Your payment for {{plan}} was refunded',
      },
      body: {
        activated: 'Thank you! The plan’s tokens are on your balance and valid until {{date}}.',
        renewed: 'Your subscription was renewed and the new period’s tokens were added. They are valid until {{date}}.',
        upgraded: 'The new plan starts today; its tokens were added and are valid until {{date}}. The previous period’s tokens stay valid until their own date.',
        payment_failed: 'The bank or the payment service declined the charge. We will try again on {{date}}. Please check that the card or wallet has enough funds.',
        unpaid: 'Several charges did not go through. The last attempt is on {{date}}; if it fails, the subscription ends.',
        canceled: 'Your subscription has ended. The period’s remaining tokens stay valid until their date; you can subscribe again at any time.',
        revoked: 'You withdrew the permission for automatic payments, so the subscription will not renew. The paid period lasts until {{date}}.',
        refunded: 'You paid a checkout that had been replaced while another plan of yours was active, so the payment was refunded in full and that second subscription ended. Your current plan is unchanged.',
      },
    },
    publication: {
      subject: {
        done: 'Your pictures are on the {{platform}} card',
        partial: 'Some of your pictures are on the {{platform}} card',
        failed: 'Your pictures did not reach the {{platform}} card',
      },
      body: {
        done: 'All {{applied}} of your results are on the “{{product}}” card on {{platform}}.',
        partial: 'On the “{{product}}” card on {{platform}}: {{applied}}. Not placed: {{failed}} — the reasons and a retry button are under Stores.',
        failed: 'None of your results reached the “{{product}}” card on {{platform}}. The reasons and a retry button are under Stores.',
      },
      open: 'Open Stores',
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
