// Matches a request path against OpenAPI path templates such as
// `/repos/{owner}/{repo}/git/ref/{ref}`.
//
// Octokit percent-encodes parameters, so `ref: "heads/cfa/1"` arrives as one segment
// `heads%2Fcfa%2F1`; a hand-built request may send the raw slashes instead, so a template
// whose last segment is one of SLASH_PARAMS may also swallow the rest of the path (tried
// only when no template matches segment by segment). Other parameters never do, so
// `/repos/o/r/nope` is not mistaken for `/repos/{owner}/{repo}`.

// Git refs, branch names, file paths and label names may contain `/`.
const SLASH_PARAMS: ReadonlySet<string> = new Set(["ref", "branch", "path", "name"]);

export interface PathTemplate {
  readonly template: string;
  readonly segments: readonly Segment[];
  readonly literals: number;
}

type Segment = { readonly literal: string } | { readonly param: string };

export interface PathMatch {
  readonly template: string;
  readonly params: Readonly<Record<string, string>>;
}

export function compilePathTemplate(template: string): PathTemplate {
  const segments = template
    .split("/")
    .slice(1)
    .map((part): Segment => {
      const param = /^\{([^}]+)\}$/.exec(part);
      return param?.[1] !== undefined ? { param: param[1] } : { literal: part };
    });
  return { template, segments, literals: segments.filter((s) => "literal" in s).length };
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function matchOne(
  template: PathTemplate,
  parts: readonly string[],
  greedyTail: boolean,
): PathMatch | undefined {
  const last = template.segments.length - 1;
  const tail = template.segments[last];
  const tailTakesSlashes = tail !== undefined && "param" in tail && SLASH_PARAMS.has(tail.param);
  if (parts.length !== template.segments.length) {
    if (!(greedyTail && tailTakesSlashes && parts.length > template.segments.length)) {
      return undefined;
    }
  }
  const params: Record<string, string> = {};
  for (let i = 0; i <= last; i++) {
    const segment = template.segments[i];
    if (segment === undefined) return undefined;
    const raw = i === last && greedyTail ? parts.slice(i).join("/") : parts[i];
    if (raw === undefined) return undefined;
    if ("literal" in segment) {
      if (raw !== segment.literal) return undefined;
      continue;
    }
    const value = decode(raw);
    if (value === undefined || value === "") return undefined;
    params[segment.param] = value;
  }
  return { template: template.template, params };
}

/** The most specific template (most literal segments) that matches `path`, if any. */
export function matchPathTemplate(
  templates: readonly PathTemplate[],
  path: string,
): PathMatch | undefined {
  const parts = path.replace(/\/+$/, "").split("/").slice(1);
  for (const greedyTail of [false, true]) {
    let best: { match: PathMatch; literals: number } | undefined;
    for (const template of templates) {
      const match = matchOne(template, parts, greedyTail);
      if (match && (best === undefined || template.literals > best.literals)) {
        best = { match, literals: template.literals };
      }
    }
    if (best) return best.match;
  }
  return undefined;
}
