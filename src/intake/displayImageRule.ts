/** Which intakes take a display image: pure, shared by the CLI and the sandbox. */
import { KIND_LABELS, readIntakeKind, type KindEvidence } from "./kinds.js";

export interface DisplayImageEvidence extends KindEvidence {
  image_id: number;
  can_edit_display_image?: boolean | undefined;
}

/** docs/api.md, display image: only manual intakes have one. Null when this intake may take one. */
export function displayImageProblem(intake: DisplayImageEvidence): { field: string; message: string } | null {
  if (intake.can_edit_display_image !== false) return null;
  const kind = KIND_LABELS[readIntakeKind(intake)];
  return { field: "display_image", message: `intake ${intake.image_id} is a ${kind} intake: only manual intakes have a display image` };
}
