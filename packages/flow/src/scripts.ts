// The flow-control scripts. Each runs atomically on one organization's keys (one hash slot), with
// Redis's clock, so every worker process sees one count of what is in flight and one circuit state.
// Each takes the deliveries of one organization that a worker has ready at once, so concurrent
// attempts share one call (one clock reading, one purge of lapsed leases per key).
//
// KEYS (both scripts): 1 org in flight, 2 org parked; then for each target of the call, once, j from
// 0: 3+3j target in flight, 4+3j target parked, 5+3j circuit. Each delivery names its target's j, so
// a call's deliveries to one target (the usual case under load) send its three keys once.
// In-flight sets hold lease tokens (job ids) scored by when the lease lapses: a worker that dies
// holding a slot loses it after the lease, never for good.

const prelude = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local purged = {}
local function purge(key)
  if purged[key] then return end
  purged[key] = true
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
end
purge(KEYS[1])
`;

/**
 * ARGV: target cap, org cap, lease ms; then per delivery: token, org-parked member (kind/target), its
 * target's j.
 * Returns per delivery {'go', 0|1 probe} or {'held', reason, parked count, probe_at ms or 0}.
 * An open circuit holds everything until its probe time; the first delivery after it is the probe
 * (half-open) and the rest wait for its outcome. A slot reserved by a release for this job is taken
 * up even when the caps are full (the release counted it), but never past a circuit.
 */
export const ACQUIRE = `${prelude}
local targetCap, orgCap, lease = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local orgInflight, orgParked = KEYS[1], KEYS[2]
local function acquire(inflight, parked, circuit, token, member)
  purge(inflight)
  local function park(reason, probeAt)
    redis.call('ZADD', parked, 'NX', now, token)
    redis.call('ZADD', orgParked, 'NX', now, member)
    local rank = redis.call('ZRANK', parked, token)
    redis.call('ZREM', orgInflight, token)
    redis.call('ZREM', inflight, token)
    return {'held', reason, rank, probeAt}
  end
  local state = redis.call('HGET', circuit, 'state')
  local probe = 0
  if state == 'open' then
    local probeAt = tonumber(redis.call('HGET', circuit, 'probe_at') or '0')
    if now < probeAt then return park('circuit_open', probeAt) end
    probe = 1
  elseif state == 'half_open' then
    local current = redis.call('HGET', circuit, 'probe')
    if current ~= token and current and redis.call('ZSCORE', inflight, current) then
      return park('circuit_open', 0)
    end
    probe = 1
  end
  local reserved = redis.call('ZSCORE', inflight, token)
  if probe == 0 and not reserved then
    if redis.call('ZCARD', inflight) >= targetCap then return park('target_cap', 0) end
    if redis.call('ZCARD', orgInflight) >= orgCap then return park('org_cap', 0) end
  end
  if probe == 1 then
    redis.call('HSET', circuit, 'state', 'half_open', 'probe', token)
  end
  redis.call('ZADD', orgInflight, now + lease, token)
  redis.call('ZADD', inflight, now + lease, token)
  -- Only a delivery that was parked has a place in the line to give up.
  if redis.call('ZREM', parked, token) == 1 and redis.call('ZCARD', parked) == 0 then
    redis.call('ZREM', orgParked, member)
  end
  return {'go', probe}
end
local out = {}
for i = 0, (#ARGV - 3) / 3 - 1 do
  local a = 4 + 3 * i
  local k = 3 + 3 * tonumber(ARGV[a + 2])
  out[i + 1] = acquire(KEYS[k], KEYS[k + 1], KEYS[k + 2], ARGV[a], ARGV[a + 1])
end
return out
`;

/**
 * ARGV: target cap, org cap, failure threshold, cooldown ms, cooldown max ms, reservation ms, org key
 * base; then per delivery: token, outcome ('ok' | 'fail' | 'none': no attempt was made), org-parked
 * member (kind/target), its target's j.
 * Frees each token's slot, moves its circuit, then hands the capacity now free to parked deliveries:
 * that target's first, then the organization's other targets' (oldest parked first). Each handed
 * slot is reserved for the job (the caller promotes it), so a newcomer cannot take it meanwhile.
 * Returns per delivery {opened, closed, kind1, target1, job1, kind2, ...}.
 */
export const RELEASE = `${prelude}
local targetCap, orgCap = tonumber(ARGV[1]), tonumber(ARGV[2])
local threshold, cooldown, cooldownMax = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local reserve, orgBase = tonumber(ARGV[6]), ARGV[7]
local orgInflight, orgParked = KEYS[1], KEYS[2]
local function closedCircuit(circuit)
  local s = redis.call('HGET', circuit, 'state')
  return not s or s == 'closed'
end
local function release(inflight, parked, circuit, token, outcome, member)
  purge(inflight)
  redis.call('ZREM', orgInflight, token)
  redis.call('ZREM', inflight, token)
  local opened, closed = 0, 0
  local state = redis.call('HGET', circuit, 'state')
  if outcome == 'ok' then
    if state == 'open' or state == 'half_open' then closed = 1 end
    redis.call('HSET', circuit, 'state', 'closed', 'failures', 0, 'last_success', now)
    if state and state ~= 'closed' then redis.call('HDEL', circuit, 'probe', 'probe_at', 'opened_at', 'cooldown') end
  elseif outcome == 'fail' then
    local failures = redis.call('HINCRBY', circuit, 'failures', 1)
    redis.call('HSET', circuit, 'last_failure', now)
    if state == 'half_open' and redis.call('HGET', circuit, 'probe') == token then
      local next = math.min(tonumber(redis.call('HGET', circuit, 'cooldown') or cooldown) * 2, cooldownMax)
      redis.call('HSET', circuit, 'state', 'open', 'cooldown', next, 'probe_at', now + next)
      redis.call('HDEL', circuit, 'probe')
    elseif (not state or state == 'closed') and failures >= threshold then
      redis.call('HSET', circuit, 'state', 'open', 'opened_at', now, 'cooldown', cooldown, 'probe_at', now + cooldown)
      opened = 1
    end
  end
  local out = {opened, closed}
  -- Nothing parked for the organization (the usual case): no capacity to hand out.
  if redis.call('EXISTS', orgParked) == 0 then return out end
  local orgFree = orgCap - redis.call('ZCARD', orgInflight)
  local function handOut(otherInflight, otherParked, parkedMember, free)
    local n = 0
    while n < free and orgFree > 0 do
      local popped = redis.call('ZPOPMIN', otherParked)
      if #popped == 0 then break end
      redis.call('ZADD', otherInflight, now + reserve, popped[1])
      redis.call('ZADD', orgInflight, now + reserve, popped[1])
      local kind, id = string.match(parkedMember, '^([^/]+)/(.+)$')
      table.insert(out, kind)
      table.insert(out, id)
      table.insert(out, popped[1])
      n = n + 1
      orgFree = orgFree - 1
    end
    if redis.call('ZCARD', otherParked) == 0 then redis.call('ZREM', orgParked, parkedMember) end
  end
  if closedCircuit(circuit) then
    handOut(inflight, parked, member, targetCap - redis.call('ZCARD', inflight))
  end
  local targetId = string.match(member, '^[^/]+/(.+)$')
  if orgFree > 0 then
    for _, other in ipairs(redis.call('ZRANGE', orgParked, 0, 9)) do
      if orgFree <= 0 then break end
      local otherId = string.match(other, '^[^/]+/(.+)$')
      if otherId ~= targetId then
        local base = orgBase .. ':t:' .. otherId
        purge(base .. ':inflight')
        if closedCircuit(base .. ':circuit') then
          handOut(base .. ':inflight', base .. ':parked', other, targetCap - redis.call('ZCARD', base .. ':inflight'))
        end
      end
    end
  end
  return out
end
local out = {}
for i = 0, (#ARGV - 7) / 4 - 1 do
  local a = 8 + 4 * i
  local k = 3 + 3 * tonumber(ARGV[a + 3])
  out[i + 1] = release(KEYS[k], KEYS[k + 1], KEYS[k + 2], ARGV[a], ARGV[a + 1], ARGV[a + 2])
end
return out
`;
