// The account dialog that is open, if any. Loaded only when one opens.
import '../../lib/account-texts';
import { useAtomValue } from 'jotai';
import { accountDialogAtom } from '../../components/dialogs';
import '../../components/form/form.css';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { ForgotPasswordDialog } from './ForgotPasswordDialog';
import { LoginDialog } from './LoginDialog';
import { RegisterDialog } from './RegisterDialog';
import { UserInfoDialog } from './UserInfoDialog';

export default function AccountDialogs() {
  switch (useAtomValue(accountDialogAtom)) {
    case 'login':
      return <LoginDialog />;
    case 'register':
      return <RegisterDialog />;
    case 'forgot':
      return <ForgotPasswordDialog />;
    case 'change-password':
      return <ChangePasswordDialog />;
    case 'user-info':
      return <UserInfoDialog />;
    default:
      return null;
  }
}
