// GitHub's GraphQL schema (@octokit/graphql-schema, the introspection GitHub publishes), built
// once per test process, and the checks GitHub makes before it runs a query: graphql-js's
// full validation against the schema, plus GitHub's own rule that every connection asks for
// `first` or `last` between 1 and 100 ("You must provide a `first` or `last` value to properly
// paginate"; https://docs.github.com/en/graphql/overview/rate-limits-and-node-limits-for-the-graphql-api#node-limit).

import { schema as published } from "@octokit/graphql-schema";
import {
  buildClientSchema,
  getNamedType,
  parse,
  validate,
  visit,
  TypeInfo,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLSchema,
  type IntrospectionQuery,
} from "graphql";

let schema: GraphQLSchema | undefined;

export function githubGraphqlSchema(): GraphQLSchema {
  if (schema === undefined) {
    const json = published.json as unknown as IntrospectionQuery | { data: IntrospectionQuery };
    schema = buildClientSchema("data" in json ? json.data : json);
  }
  return schema;
}

/** The query parsed, or every reason GitHub would refuse it (as its `errors` would say). */
export function checkGithubQuery(
  query: string,
  variables: Record<string, unknown>,
): { document: DocumentNode; errors: [] } | { document: undefined; errors: string[] } {
  const s = githubGraphqlSchema();
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (error) {
    return { document: undefined, errors: [(error as Error).message] };
  }
  const errors = validate(s, document).map((e) => e.message);
  const typeInfo = new TypeInfo(s);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const type = typeInfo.getType();
        if (type === null || type === undefined) return;
        if (!getNamedType(type).name.endsWith("Connection")) return;
        const arg = (name: string) => {
          const given = node.arguments?.find((a) => a.name.value === name)?.value;
          if (given === undefined) return undefined;
          if (given.kind === "IntValue") return Number(given.value);
          if (given.kind === "Variable") return variables[given.name.value] as number | undefined;
          return undefined;
        };
        const limit = arg("first") ?? arg("last");
        if (limit === undefined || limit === null) {
          errors.push(
            `You must provide a \`first\` or \`last\` value to properly paginate the \`${node.name.value}\` connection.`,
          );
        } else if (limit < 1 || limit > 100) {
          errors.push(
            `Requesting ${limit} records on the \`${node.name.value}\` connection exceeds the \`first\`/\`last\` limit of 100 records.`,
          );
        }
      },
    }),
  );
  return errors.length === 0 ? { document, errors: [] } : { document: undefined, errors };
}
