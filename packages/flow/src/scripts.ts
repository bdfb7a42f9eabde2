// The flow-control scripts. Each runs atomically on one organization's keys (one hash slot), with
// Redis's clock, so every worker process sees one count of what is in flight and one circuit state.
//
// KEYS (both scripts): 1 org in flight, 2 target in flight, 3 target parked, 4 circuit, 5 org parked.
// In-flight sets hold lease tokens (job ids) scored by when the lease lapses: a worker that dies
// holding a slot loses it after the lease, never for good.

const prelude = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
`;

/**
 * ARGV: token, org-parked member (kind/target), target cap, org cap, lease ms.
 * Returns {'go', 0|1 probe} or {'held', reason, parked count, probe_at ms or 0}.
 * An open circuit holds everything until its probe time; the first delivery after it is the probe
 * (half-open) and the rest wait for its outcome. A slot reserved by a release for this job is taken
 * up even when the caps are full (the release counted it), but never past a circuit.
 */
export const ACQUIRE = `${prelude}
local token, member = ARGV[1], ARGV[2]
local targetCap, orgCap, lease = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local function park(reason, probeAt)
  redis.call('ZADD', KEYS[3], 'NX', now, token)
  redis.call('ZADD', KEYS[5], 'NX', now, member)
  local rank = redis.call('ZRANK', KEYS[3], token)
  redis.call('ZREM', KEYS[1], token)
  redis.call('ZREM', KEYS[2], token)
  return {'held', reason, rank, probeAt}
end
local state = redis.call('HGET', KEYS[4], 'state')
local probe = 0
if state == 'open' then
  local probeAt = tonumber(redis.call('HGET', KEYS[4], 'probe_at') or '0')
  if now < probeAt then return park('circuit_open', probeAt) end
  probe = 1
elseif state == 'half_open' then
  local current = redis.call('HGET', KEYS[4], 'probe')
  if current ~= token and current and redis.call('ZSCORE', KEYS[2], current) then
    return park('circuit_open', 0)
  end
  probe = 1
end
local reserved = redis.call('ZSCORE', KEYS[2], token)
if probe == 0 and not reserved then
  if redis.call('ZCARD', KEYS[2]) >= targetCap then return park('target_cap', 0) end
  if redis.call('ZCARD', KEYS[1]) >= orgCap then return park('org_cap', 0) end
end
if probe == 1 then
  redis.call('HSET', KEYS[4], 'state', 'half_open', 'probe', token)
end
redis.call('ZADD', KEYS[1], now + lease, token)
redis.call('ZADD', KEYS[2], now + lease, token)
redis.call('ZREM', KEYS[3], token)
if redis.call('ZCARD', KEYS[3]) == 0 then redis.call('ZREM', KEYS[5], member) end
return {'go', probe}
`;

/**
 * ARGV: token, outcome ('ok' | 'fail' | 'none': no attempt was made), org-parked member, target cap, org cap, failure threshold,
 * cooldown ms, cooldown max ms, reservation ms, org key base, target id.
 * Frees the token's slot, moves the circuit, then hands the capacity now free to parked deliveries:
 * this target's first, then the organization's other targets' (oldest parked first). Each handed
 * slot is reserved for the job (the caller promotes it), so a newcomer cannot take it meanwhile.
 * Returns {opened, closed, kind1, target1, job1, kind2, ...}.
 */
export const RELEASE = `${prelude}
local token, outcome, member = ARGV[1], ARGV[2], ARGV[3]
local targetCap, orgCap = tonumber(ARGV[4]), tonumber(ARGV[5])
local threshold, cooldown, cooldownMax = tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8])
local reserve, orgBase, targetId = tonumber(ARGV[9]), ARGV[10], ARGV[11]
redis.call('ZREM', KEYS[1], token)
redis.call('ZREM', KEYS[2], token)
local opened, closed = 0, 0
local state = redis.call('HGET', KEYS[4], 'state')
if outcome == 'ok' then
  if state == 'open' or state == 'half_open' then closed = 1 end
  redis.call('HSET', KEYS[4], 'state', 'closed', 'failures', 0, 'last_success', now)
  redis.call('HDEL', KEYS[4], 'probe', 'probe_at', 'opened_at', 'cooldown')
elseif outcome == 'fail' then
  local failures = redis.call('HINCRBY', KEYS[4], 'failures', 1)
  redis.call('HSET', KEYS[4], 'last_failure', now)
  if state == 'half_open' and redis.call('HGET', KEYS[4], 'probe') == token then
    local next = math.min(tonumber(redis.call('HGET', KEYS[4], 'cooldown') or cooldown) * 2, cooldownMax)
    redis.call('HSET', KEYS[4], 'state', 'open', 'cooldown', next, 'probe_at', now + next)
    redis.call('HDEL', KEYS[4], 'probe')
  elseif (not state or state == 'closed') and failures >= threshold then
    redis.call('HSET', KEYS[4], 'state', 'open', 'opened_at', now, 'cooldown', cooldown, 'probe_at', now + cooldown)
    opened = 1
  end
end
local out = {opened, closed}
local orgFree = orgCap - redis.call('ZCARD', KEYS[1])
local function handOut(inflight, parked, parkedMember, free)
  local n = 0
  while n < free and orgFree > 0 do
    local popped = redis.call('ZPOPMIN', parked)
    if #popped == 0 then break end
    redis.call('ZADD', inflight, now + reserve, popped[1])
    redis.call('ZADD', KEYS[1], now + reserve, popped[1])
    local kind, id = string.match(parkedMember, '^([^/]+)/(.+)$')
    table.insert(out, kind)
    table.insert(out, id)
    table.insert(out, popped[1])
    n = n + 1
    orgFree = orgFree - 1
  end
  if redis.call('ZCARD', parked) == 0 then redis.call('ZREM', KEYS[5], parkedMember) end
end
local function closedCircuit(circuit)
  local s = redis.call('HGET', circuit, 'state')
  return not s or s == 'closed'
end
if closedCircuit(KEYS[4]) then
  handOut(KEYS[2], KEYS[3], member, targetCap - redis.call('ZCARD', KEYS[2]))
end
if orgFree > 0 then
  for _, other in ipairs(redis.call('ZRANGE', KEYS[5], 0, 9)) do
    if orgFree <= 0 then break end
    local otherId = string.match(other, '^[^/]+/(.+)$')
    if otherId ~= targetId then
      local base = orgBase .. ':t:' .. otherId
      redis.call('ZREMRANGEBYSCORE', base .. ':inflight', '-inf', now)
      if closedCircuit(base .. ':circuit') then
        handOut(base .. ':inflight', base .. ':parked', other, targetCap - redis.call('ZCARD', base .. ':inflight'))
      end
    end
  end
end
return out
`;
