import type { Translated } from '../shape';
import type ru from '../ru/core';

const core: Translated<typeof ru, 'zh'> = {
  app: {
    name: 'SoleStudio',
    tagline: '为鞋类卖家打造的营销图片与视频',
  },
  a11y: {
    skipToContent: '跳到正文',
    openMenu: '打开菜单',
    closeMenu: '关闭菜单',
    home: 'SoleStudio 首页',
  },
  theme: {
    toLight: '切换到浅色主题',
    toDark: '切换到深色主题',
  },
  language: {
    label: '语言',
    names: { ru: 'Русский', en: 'English', zh: '中文' },
  },
  nav: {
    login: '登录',
    register: '注册',
    home: '工作台',
    taskHistory: '任务记录',
    materialHistory: '我的素材',
    stores: '店铺',
    subscriptionManage: '管理订阅',
    consumptionHistory: '消费记录',
    feedback: '意见反馈',
    changePassword: '修改密码',
    contactUs: '联系我们',
    logout: '退出登录',
    account: '账户',
  },
  footer: {
    terms: '使用条款',
    privacy: '隐私政策',
    contact: '联系方式',
    rights: '© {{year}} SoleStudio',
  },
  landing: {
    title: '让鞋子大卖的图片与视频',
    lead: '用手机从六个角度拍摄一双鞋——即使没有网络——即可获得棚拍图、海报、配色卡、模特图和适用于电商平台的短视频。',
    users: '超过 50,000 位卖家',
    usersNote: '正在使用 SoleStudio 创作内容',
    start: '开始使用',
    signedOut: {
      passwordChanged: '您已退出登录：密码已在另一台设备上更改。',
      dismiss: '知道了',
    },
    shoesCard: {
      title: '鞋类卖家专属',
      body: '拍六个角度，即得 Wildberries、Ozon 和 Amazon 可直接上架的图片。',
      cta: '查看成果',
    },
    trendsCard: {
      title: '当季趋势',
      body: '柔和色调、厚底、复古运动鞋和极简乐福鞋——让拍摄风格贴合买家的搜索。',
    },
    commentsTitle: '卖家评价',
    comments: {
      c1: {
        text: '以前拍一款鞋要一整天。现在我在厨房拍六个角度，一个晚上就能更新整个目录。',
        author: '安娜，童鞋店，喀山',
      },
      c2: {
        text: '图片直接符合 Ozon 和 Wildberries 的尺寸要求，不用再手动调整。',
        author: '帖木儿，运动鞋与帆布鞋，阿拉木图',
      },
      c3: {
        text: '广告视频很生动，买家更愿意把商品页看完。',
        author: '奥尔加，女鞋，明斯克',
      },
    },
  },
  shoes: {
    title: 'SoleStudio 助力鞋类卖家',
    lead: '按提示用手机拍摄一双鞋，SoleStudio 将这些照片变成完整的营销内容。',
    stepsTitle: '使用方法',
    steps: {
      s1: '将鞋放在浅色纯色背景上，光线均匀。',
      s2: '按提示拍摄六张：三个侧面、正面、背面和鞋底。',
      s3: '选择风格——结果会出现在任务记录中并通过邮件通知。',
    },
    outputsTitle: '您将获得',
    outputs: {
      product: {
        title: '棚拍商品图',
        body: '每个角度置于白色或柔和的影棚背景并带阴影，Wildberries 和 Ozon 用 3:4，Amazon 用 1:1。',
      },
      multi: {
        title: '多角度卡片',
        body: '一张卡片展示这双鞋的所有角度，买家一眼看全款式。',
      },
      poster: {
        title: '海报',
        body: '主图、排版以及取自鞋子配色的背景，适用于广告与社交媒体。',
      },
      color: {
        title: '配色卡',
        body: '鞋款主色及其名称和 HEX 值，并附搭配的穿搭配色。',
      },
      stillLife: {
        title: '静物图',
        body: '以鞋为中心的平铺构图。',
      },
      model: {
        title: '模特图',
        body: '真人穿着展示，全身或半身，场景背景或纯色背景。',
      },
      video: {
        title: '创意视频',
        body: '用您的角度照片生成 6–8 秒 1080×1920 短片，可选水晶、液态金属、沙丘、山峰等主题。',
      },
    },
    sampleLabel: '示例：{{name}}',
  },
  contact: {
    title: '联系我们',
    lead: '工作日莫斯科时间 9:00 至 18:00 为卖家答疑。',
    emailLabel: '电子邮箱',
    feedbackLabel: '建议与问题反馈',
    feedbackLink: '通过反馈表单联系我们',
    responseTime: '我们通常在一个工作日内回复。',
  },
  routes: {
    landing: '首页',
    shoes: '鞋类卖家',
    verify_email: '邮箱验证',
    contact_us: '联系我们',
    feedback: '意见反馈',
    home: '工作台',
    task: '新建任务',
    task_retry: '重试任务',
    task_history: '任务记录',
    material: '我的素材',
    stores: '店铺',
    image_edit: '图片编辑',
    editor: '编辑器',
    subscription: '套餐',
    upgrade: '升级套餐',
    recharge: '充值',
    recharge_result: '充值结果',
    recharge_success: '充值成功',
    recharge_cancel: '充值已取消',
    consumption_history: '消费记录',
    local_subscription: '订阅结算',
    subscription_manage: '管理订阅',
    subscription_result: '订阅结果',
    subscription_success: '订阅成功',
    subscription_cancel: '订阅已取消',
    not_found: '页面不存在',
  },
  comingSoon: {
    title: '即将上线',
    body: '“{{name}}”将在近期更新中推出，其他功能已可使用。',
    back: '返回首页',
  },
  notFound: {
    title: '页面不存在',
    body: '链接可能已过期，或地址有误。',
    back: '返回首页',
  },
  update: {
    title: '新版本 {{version}} 可用',
    whatsNew: '更新内容',
    now: '立即更新',
    later: '稍后',
    updating: '正在更新…',
    forced: '请安装更新后继续使用。',
  },
  payments: {
    testBanner: '测试支付：此服务器上的支付为沙盒，不会扣款，在此购买的内容均非真实。',
  },
  network: {
    offline: '当前离线，显示已保存的页面。',
  },
  common: {
    errors: {
      internal_server_error: '服务器内部错误，请联系客服。',
      website_error: '出现问题，请刷新页面后重试。',
      network: '无法连接服务器，请检查网络后重试。',
      timeout: '服务器响应超时，请重试。',
    },
  },
};

export default core;
