import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { LoadedList, Section } from '../../components/ui/section';
import type { SecurityData } from './actions';
import { ActiveSessions } from './active-sessions';
import { ChangeEmail } from './change-email';
import { SignInMethods } from './sign-in-methods';
import { TwoFactor } from './two-factor';
import { YourData } from './your-data';

/** Mi perfil → «Seguridad» (/profile#seguridad): sessions, ways in, two-factor, e-mail, data. */
export function SecuritySection({
  data,
  enrolment,
}: {
  data: SecurityData;
  /** The two-factor enrolment (another feature's), rendered by the route: see TwoFactor. */
  enrolment: (onDone: () => void) => ReactNode;
}) {
  const location = useLocation();
  const box = useRef<HTMLDivElement>(null);

  // Arriving at /profile#seguridad (a link, or back from linking an account): the page is drawn
  // after its data, too late for the browser's own jump to the anchor. Scroll only.
  useEffect(() => {
    if (location.hash === '#seguridad') box.current?.scrollIntoView({ block: 'start' });
  }, [location.hash]);

  return (
    <div ref={box} className="scroll-mt-4">
      <Section
        id="seguridad"
        title="Seguridad"
        description="Dónde está abierta tu cuenta, cómo entras en ella y qué pasa con tus datos."
      >
        <div className="flex flex-col gap-8">
          <ActiveSessions sessions={data.sessions} />
          <LoadedList value={data.overview} what="la seguridad de tu cuenta">
            {(overview) => (
              <div className="flex flex-col gap-8">
                <SignInMethods overview={overview} linkError={data.linkError} />
                <TwoFactor overview={overview} enrolment={enrolment} />
                <ChangeEmail email={overview.email} />
                <YourData
                  hasPassword={overview.hasPassword}
                  twoFactorEnabled={overview.twoFactorEnabled}
                />
              </div>
            )}
          </LoadedList>
        </div>
      </Section>
    </div>
  );
}
