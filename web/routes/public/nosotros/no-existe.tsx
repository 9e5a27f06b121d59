import { useParams } from 'react-router';
import { MissingSection, SectionPage, sectionMeta } from '../../../features/nosotros/section-page';

// /nosotros/:id for an id that is not one of the sections (they have routes of their own).
export function meta({ params }: { params: { id?: string } }) {
  return sectionMeta(params.id);
}

export default function NoSuchSection() {
  const { id } = useParams();
  return (
    <SectionPage id={id}>
      <MissingSection />
    </SectionPage>
  );
}
