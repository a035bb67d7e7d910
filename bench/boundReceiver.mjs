// One receiver of `bench/bound.mjs --together`, in a process of its own, driven over IPC: 'start' makes a fresh
// receiver and answers its URL; 'mark' starts counting this process's CPU; 'end' answers the CPU per delivery since
// the mark, split as cpuShare.mjs splits it, and stops the receiver; 'exit' ends the process.
import { boundTargets } from './boundTargets.mjs';
import { cpuShareMark, cpuShareSince, watchGc } from './cpuShare.mjs';

const { name, jwk, trust, compareFile, count } = JSON.parse(process.argv[2]);
const make = boundTargets({ jwk, trust, compareFile })[name];
if (!make) throw new Error(`unknown receiver ${name}`);
watchGc();
let target;
let cpu0;
let mark;
process.on('message', async (m) => {
  if (m === 'start') {
    target = await make();
    process.send({ url: target.url });
  } else if (m === 'mark') {
    cpu0 = process.cpuUsage();
    mark = cpuShareMark();
    process.send('marked');
  } else if (m === 'end') {
    const cpu = process.cpuUsage(cpu0);
    const share = cpuShareSince(mark, count);
    await target.stop();
    const us = (cpu.user + cpu.system) / count;
    const others = share.otherThreadsUsPerRequest ?? 0;
    process.send({ us, gc: share.gcPauseUsPerRequest, others, main: us - share.gcPauseUsPerRequest - others });
  } else if (m === 'exit') process.exit(0);
});
// bound.mjs gone (it failed, or was stopped): nothing is left running.
process.on('disconnect', () => process.exit(1));
process.send('ready');
