// The form <-> GradeRequest, both ways. The service validates; the page only shapes the JSON.

const MODULES = ["difficulty", "simplicity", "completeness", "format"];

/** Non-empty lines of a textarea, each trimmed at the end. */
export function lines(text) {
  return text.split(/\r?\n/).map((line) => line.trimEnd()).filter((line) => line.trim());
}

/** The GradeRequest the form describes (fields left empty are left out). */
export function readRequest(form) {
  const f = form.elements;
  const request = { problem: f.problem.value };
  if (f.solution_split.checked) request.solution_steps = lines(f.solution.value);
  else request.solution = f.solution.value;
  const answers = lines(f.reference_answer.value).map((a) => a.trim());
  if (answers.length === 1) request.reference_answer = answers[0];
  else if (answers.length > 1) request.reference_answer = answers;
  if (f.reference_solution.value.trim()) {
    if (f.reference_split.checked) request.reference_steps = lines(f.reference_solution.value);
    else request.reference_solution = f.reference_solution.value;
  }
  const skeleton = lines(f.skeleton.value);
  if (skeleton.length) request.skeleton = skeleton;
  if (f.problem_type.value) request.problem_type = f.problem_type.value;
  if (f.scoring_policy.value) request.scoring_policy = f.scoring_policy.value;
  request.language = f.language.value;
  request.mode = f.mode.value;
  request.modules = Object.fromEntries(MODULES.map((m) => [m, f[`module_${m}`].checked]));
  if (f.fused.checked) request.fused = true;
  return request;
}

function steps(text, list) {
  return list ? list.join("\n") : text ?? "";
}

/** Put a GradeRequest (e.g. a bundled example) into the form. */
export function fillForm(form, request) {
  const f = form.elements;
  f.problem.value = request.problem ?? "";
  f.solution_split.checked = Array.isArray(request.solution_steps);
  f.solution.value = steps(request.solution, request.solution_steps);
  const answer = request.reference_answer;
  f.reference_answer.value = Array.isArray(answer) ? answer.join("\n") : answer ?? "";
  f.reference_split.checked = Array.isArray(request.reference_steps);
  f.reference_solution.value = steps(request.reference_solution, request.reference_steps);
  f.skeleton.value = steps("", request.skeleton);
  f.problem_type.value = request.problem_type ?? "";
  f.scoring_policy.value = request.scoring_policy ?? "";
  f.language.value = request.language ?? "auto";
  f.mode.value = request.mode ?? "auto";
  for (const m of MODULES) f[`module_${m}`].checked = Boolean(request.modules?.[m]);
  f.fused.checked = Boolean(request.fused);
}

// The service names fields as in the JSON body ("solution_steps.2", "modules.format");
// the value is the id of the control that edits it.
const FIELD_CONTROLS = {
  problem: "problem", solution: "solution", solution_steps: "solution",
  reference_answer: "reference_answer", reference_solution: "reference_solution",
  reference_steps: "reference_solution", skeleton: "skeleton", problem_type: "problem_type",
  scoring_policy: "scoring_policy",
  language: "language", mode: "mode-group", fused: "fused", "X-API-Key": "api_key",
};

/** The form control (or fieldset) an error's `field` points at, if any. */
export function controlFor(form, field) {
  if (!field) return null;
  const [head, tail] = field.split(".");
  const id = head === "modules" && MODULES.includes(tail) ? `module_${tail}` : FIELD_CONTROLS[head];
  // By id in the document: the key field sits in the page header (`form="grade-form"`).
  return id ? form.ownerDocument.getElementById(id) : null;
}
