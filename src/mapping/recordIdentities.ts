/**
 * The identities a record gives to entities other records name too, with the
 * names it gives them: what a conversion compares across records to report a
 * conflict (one ORCID iD on two people, one journal key on two journals).
 */
export interface RecordIdentities {
  /** The ORCID iDs the record links (`https://orcid.org/…`), each with the name the record gives its person. */
  orcids: [orcid: string, name: string][];
  /** The IRIs the record names its journal or book series by (its own and the `owl:sameAs` ones), and its name there. */
  serial?: { keys: string[]; name: string };
}
