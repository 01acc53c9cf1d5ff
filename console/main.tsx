import { render } from 'preact';
import { useState } from 'preact/hooks';
import { ConsoleView } from './console-view.js';
import { clearSession, loadSession, type Session } from './session.js';
import { SignIn } from './sign-in.js';
import './console.css';

function App() {
  const [session, setSession] = useState<Session | undefined>(loadSession);
  if (!session) return <SignIn onSignedIn={setSession} />;
  return (
    <ConsoleView
      session={session}
      onSignOut={() => {
        clearSession();
        setSession(undefined);
      }}
    />
  );
}

render(<App />, document.getElementById('console')!);
