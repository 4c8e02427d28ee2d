// The console's screens take the one wording for no IP from where the commands take it too.
export { NO_IP, ipsText } from '../format/noIp';
