// @spec SPEC-AUTH-001
export function login(user: string, password: string): Promise<Session> {
  return api.post("/login", { user, password });
}
