// A button that opens the device's file picker and hands over the one file chosen (picking the
// same file again works: the input is emptied each time).
import { useRef, type ReactNode } from 'react';
import { IonButton } from '@ionic/react';

export function FileButton({ accept, onFile, disabled, testId, inputTestId, children }: {
  accept: string;
  onFile: (file: File) => void;
  disabled?: boolean;
  testId: string;
  inputTestId: string;
  children: ReactNode;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={accept}
        className="ion-hide"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onFile(file);
        }}
        data-testid={inputTestId}
      />
      <IonButton onClick={() => input.current?.click()} disabled={disabled} data-testid={testId}>
        {children}
      </IonButton>
    </>
  );
}
