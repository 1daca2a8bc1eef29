import type { Translated } from '../shape';
import type ru from '../ru/mail';

const mail: Translated<typeof ru, 'zh'> = {
  mail: {
    hello: '{{name}}，您好！',
    ignore: '如果这不是您本人的操作，请忽略此邮件。',
    verify: {
      subject: '确认您的 SoleStudio 邮箱',
      body: '请点击以下链接确认邮箱地址，完成 SoleStudio 注册：',
      button: '确认邮箱',
      expiry: '链接 24 小时内有效，仅可使用一次。',
    },
    resetCode: {
      subject: 'SoleStudio 密码重置验证码',
      body: '您的密码重置验证码：',
      expiry: '验证码 10 分钟内有效，请勿告知他人。',
    },
    task: {
      subject: {
        completed: '您的内容已生成',
        partially_completed: '部分内容已生成',
        failed: '任务未能完成',
      },
      body: {
        completed: '任务已完成：所有结果都在任务历史中等您查看。',
        partially_completed: '部分结果已在任务历史中生成，未能生成部分的代币已退还。',
        manual_rejection: '部分照片未通过检查。原因和重试按钮见任务历史。代币已退还。',
        system_error: '由于我们这边的错误，任务未能完成。代币已退还。',
      },
      open: '打开任务历史',
    },
  },
};

export default mail;
